import GTIOAnalytics
import GTIOCatalog
import GTIOProjections
import GTIOTables

/// The report's numbers and tables as Markdown, for chat and email.
struct MarkdownReport {
    let report: NightlyReport

    func render() -> String {
        let trend = report.trendRange
        var out = "# GTIO nightly report: \(report.date)\n\n"
        out += "Window: \(report.date) 00:00 to 23:59:59.999 UTC. Trends: \(Timestamp.dateString(ofDay: trend.lowerBound)) to \(report.date). "
        out += "Computed at log seq \(report.logSeq) (\(report.eventsInView) events at or before \(report.cutoff.description)).\n\n"
        if !report.dayHasEvents { out += "> No events happened on \(report.date): the day's figures are zero.\n\n" }

        out += "## Headline numbers\n\n"
        out += table(["metric", "value", "vs day before", "vs week before"], report.headline.map {
            [.text($0.name), .integer(Int64($0.value)), .text(ReportText.change(from: $0.dayBefore, to: $0.value)),
             .text(ReportText.change(from: $0.weekBefore, to: $0.value))]
        })

        out += "## Sign-ups by provider\n\n"
        out += table(["provider", "sign-ups"], EventType.providers.map { [.text($0), .integer(Int64(report.today.signups[$0] ?? 0))] })

        out += "## Popular looks\n\n"
        out += report.looks.isEmpty ? "No eligible looks.\n\n" : table(
            ["rank", "post", "author", "points", "wear it", "change it", "verdict"], report.looks.map { look in
                let verdict = report.verdict(of: look.post)
                return [.integer(Int64(look.rank)), .text(look.post), .text(look.author), .integer(Int64(look.points)),
                        .integer(Int64(verdict?.wearIt ?? 0)), .integer(Int64(verdict?.changeIt ?? 0)), .text(verdict?.label ?? "no votes")]
            })

        out += "## Onboarding funnel (devices first opened \(Timestamp.dateString(ofDay: trend.lowerBound)) to \(report.date))\n\n"
        out += table(["step", "devices", "of the step before", "of devices opened"], OnboardingFunnel.steps.indices.map {
            [.text(OnboardingFunnel.steps[$0]), .integer(Int64(report.funnel.reached[$0])),
             .text(ReportText.percent(report.funnel.stepConversion($0))), .text(ReportText.percent(report.funnel.overallConversion($0)))]
        })

        out += "## Retention by sign-up day\n\n"
        out += report.retention.isEmpty ? "No sign-ups in the \(NightlyReport.trendDays) days before.\n\n" : table(
            ["cohort", "users"] + RetentionCohort.offsets.map { "day \($0)" }, report.retention.reversed().map { cohort in
                [.text(cohort.date), .integer(Int64(cohort.users))] + RetentionCohort.offsets.indices.map { .text(ReportText.percent(cohort.rate($0))) }
            })

        out += "## Quick-add acceptance\n\n"
        out += table(["shown", "pairs shown", "accepted", "acceptance"], [
            ("on \(report.date)", report.quickAddToday), (report.trendLabel, report.quickAddTrend),
        ].map { [.text($0.0), .integer(Int64($0.1.shown)), .integer(Int64($0.1.accepted)), .text(ReportText.percent($0.1.rate))] })

        out += "## Products\n\n"
        out += report.products.isEmpty ? "No product has a heart, a list entry, a suggestion or a post yet.\n\n"
            : table(AnswerTable.productColumns, AnswerTable.products(report.products).rows)
        out += "Suggestions by channel so far: " + report.suggestionChannels.map { "\($0.channel) \($0.count)" }.joined(separator: ", ") + ".\n\n"

        out += "## Places\n\n"
        out += report.places.isEmpty ? "No look Popular looks ranks has a place.\n\n"
            : table(AnswerTable.placeColumns, AnswerTable.places(report.places).rows)

        out += "## Prices of the day's product posts\n\n"
        out += report.priceSummary.map { table(AnswerTable.priceColumns, AnswerTable.prices([$0]).rows) }
            ?? "No product post with a price was created on \(report.date).\n\n"

        let today = report.moderationToday
        out += "## Moderation\n\n"
        out += "Queue at the end of the day: \(today.queue) open items, \(today.hidden) hidden. "
        out += "Decisions on the day: \(today.decisions) (\(today.removed) removed, \(today.dismissed) dismissed), "
        out += "wait median \(ReportText.hours(today.medianHours)), 90th percentile \(ReportText.hours(today.p90Hours)).\n\n"

        out += "## Saved insights\n\n"
        if report.savedInsights.isEmpty { out += "No insight is saved.\n\n" }
        for saved in report.savedInsights {
            out += "### \(MarkdownRenderer.escape(saved.name))\n\n\(MarkdownRenderer.code(saved.command))\n\n"
            switch saved.answer {
            case .success(let table): out += table.rows.isEmpty ? "No rows.\n\n" : MarkdownRenderer.render(table) + "\n"
            case .failure(let failure): out += "Not answered: \(MarkdownRenderer.escape(failure.reason))\n\n"
            }
        }

        out += "## Anomalies of the day\n\n"
        out += report.anomalies.isEmpty ? "None.\n\n" : table(["type", "why it was ignored", "events"], report.anomalies.map {
            [.text($0.type.rawValue), .text($0.anomaly.rawValue), .integer(Int64($0.count))]
        })

        out += "## Quarantined input\n\n"
        out += report.quarantined == 0 ? "Nothing is waiting in quarantine.\n" : "\(report.quarantined) rejected \(report.quarantined == 1 ? "line is" : "lines are") waiting to be fixed and retried.\n"
        return out
    }

    private func table(_ columns: [String], _ rows: [[Cell]]) -> String {
        MarkdownRenderer.render(ResultTable(columns: columns, rows: rows)) + "\n"
    }
}
