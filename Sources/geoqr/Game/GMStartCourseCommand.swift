import ArgumentParser
import Foundation
import Play

/// `geoqr gm start-course`.
struct GMStartCourseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start-course",
        abstract: "Give a course's mass start now: every runner's clock starts at this moment.",
        discussion: """
        For a course with no start code (the hunt file leaves its "start" out). Given once: \
        a second start prints the first one's time and changes nothing. The control room's \
        Courses tab has the same button.

        Example:
          geoqr gm start-course SCORE --hunt demo
        """
    )

    @Argument(help: ArgumentHelp("The course's id, as geoqr caches list prints it.", valueName: "COURSE"))
    var course: String

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print {course, started} as JSON.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let started = try await orFail { try await game.startCourse(course) }.value
        let time = started.formatted(.iso8601)
        if json { return try printJSON(["course": course.uppercased(), "started": time]) }
        print("course \(course.uppercased()) started at \(time)")
    }
}

/// `geoqr gm disqualify`.
struct GMDisqualifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disqualify",
        abstract: "Disqualify a runner from their course, with a reason.",
        discussion: """
        The runner keeps their finds and points in the free hunt; on the course they are \
        listed as disqualified, unplaced. Once per runner: a second time prints the first \
        reason and changes nothing.

        Example:
          geoqr gm disqualify Ada --course LINE --hunt demo --reason "took the road through the garden"
        """
    )

    @Argument(help: ArgumentHelp("The runner's name or id.", valueName: "PLAYER"))
    var player: String

    @Option(help: ArgumentHelp("The course's id.", valueName: "COURSE"))
    var course: String

    @OptionGroup var gameOptions: GameOptions
    @OptionGroup var reasonOption: ReasonOption

    @Flag(help: "Print {player, course, reason} as JSON.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let reason = try await orFail { try await game.disqualify(player, from: course, reason: reasonOption.reason) }.value
        if json { return try printJSON(["player": player, "course": course.uppercased(), "reason": reason]) }
        print("\(player) is disqualified from course \(course.uppercased()): \(reason)")
    }
}
