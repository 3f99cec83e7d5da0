import GTIOAnalytics
import GTIOTables

extension NightlyReport {
    /// The report's files by name: the page, the summary and the CSV files for machines.
    public func files() -> [(name: String, contents: String)] {
        var looks = AnswerTable.looks(self.looks)
        looks.columns += ["wear_it", "change_it", "verdict"]
        for (index, look) in self.looks.enumerated() {
            let verdict = verdict(of: look.post)
            looks.rows[index] += [.integer(Int64(verdict?.wearIt ?? 0)), .integer(Int64(verdict?.changeIt ?? 0)), Cell(verdict?.label)]
        }
        return [
            ("index.html", HTMLReport(report: self).render()),
            ("summary.md", MarkdownReport(report: self).render()),
            ("engagement.csv", CSVRenderer.render(AnswerTable.engagement(trend))),
            ("looks.csv", CSVRenderer.render(looks)),
            ("verdicts.csv", CSVRenderer.render(AnswerTable.verdicts(verdicts))),
            ("funnel.csv", CSVRenderer.render(AnswerTable.funnelByDay(funnelByDay))),
            ("retention.csv", CSVRenderer.render(AnswerTable.retention(retention))),
            ("flags.csv", CSVRenderer.render(queue)),
        ]
    }
}
