import ArgumentParser
import GTIOAnalytics
import GTIOCatalog
import GTIOProjections

/// `funnel`: the onboarding funnel of devices by the day of their first `app.opened`.
struct FunnelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "funnel",
        abstract: "The onboarding funnel: app opened → signed up → profile completed → quick-add follow, within 7 days.",
        discussion: """
            Devices are taken by the UTC day of their first app.opened. A signed-up user's events join \
            their device through the device of their sign-up. Example: gtio -c 'funnel --from 2012-05-01 --by-day'
            """)
    @OptionGroup var range: DayRangeOptions
    @Flag(help: "One row per first-open day instead of one row per step.") var byDay = false
    @OptionGroup var query: QueryOptions

    func run() throws {
        let models = try query.storedModels()
        if byDay {
            guard let first = try range.firstDay ?? models.firstOpenDay(), case let last = range.lastDay ?? models.today, first <= last else {
                return try query.emit(AnswerTable.funnelByDay([]))
            }
            try query.emit(AnswerTable.funnelByDay(models.onboardingFunnelByDay(first...last)))
        } else {
            try query.emit(AnswerTable.funnel(models.onboardingFunnel(firstOpenedOn: range.days)))
        }
    }
}
