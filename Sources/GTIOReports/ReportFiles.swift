import GTIOAnalytics
import GTIOTables

extension NightlyReport {
    /// The report's files by name: the page, the summary and the CSV files; `rawCSV` leaves
    /// their text cells as they are, formulas and all (see `CSVRenderer`).
    public func files(rawCSV: Bool = false) -> [(name: String, contents: String)] {
        func csv(_ table: ResultTable) -> String { CSVRenderer.render(table, raw: rawCSV) }
        var looks = AnswerTable.looks(self.looks)
        looks.columns += ["wear_it", "change_it", "verdict"]
        for (index, look) in self.looks.enumerated() {
            let verdict = verdict(of: look.post)
            looks.rows[index] += [.integer(Int64(verdict?.wearIt ?? 0)), .integer(Int64(verdict?.changeIt ?? 0)), Cell(verdict?.label)]
        }
        let insightFiles: [(name: String, contents: String)] = savedInsights.compactMap { saved in
            guard case .success(let table) = saved.answer else { return nil }
            return ("insight-\(saved.name).csv", csv(table))
        }
        return [
            ("index.html", HTMLReport(report: self).render()),
            ("summary.md", MarkdownReport(report: self).render()),
            ("engagement.csv", csv(AnswerTable.engagement(trend))),
            ("looks.csv", csv(looks)),
            ("verdicts.csv", csv(AnswerTable.verdicts(verdicts))),
            ("funnel.csv", csv(AnswerTable.funnelByDay(funnelByDay))),
            ("retention.csv", csv(AnswerTable.retention(retention))),
            ("flags.csv", csv(queue)),
            ("products.csv", csv(AnswerTable.products(products))),
            ("places.csv", csv(AnswerTable.places(places))),
            ("prices.csv", csv(AnswerTable.prices(priceSummary.map { [$0] } ?? []))),
        ] + insightFiles
    }
}
