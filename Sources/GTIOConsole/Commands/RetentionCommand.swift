import ArgumentParser
import GTIOAnalytics
import GTIOProjections

/// `retention`: sign-up cohorts and how many came back on day 1, 7 and 30.
struct RetentionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract: "Retention by sign-up day: users active again 1, 7 and 30 days later.",
        discussion: "Columns stay empty while that day has not begun. Example: gtio -c 'retention --from 2012-05-01'")
    @OptionGroup var range: DayRangeOptions
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.emit(AnswerTable.retention(try query.storedModels().retention(cohorts: range.days)))
    }
}
