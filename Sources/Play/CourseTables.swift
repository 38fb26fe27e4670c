import Foundation
import GeoQR

extension CourseBoard {
    /// Every split as a CSV row (one per runner and control, then the finish): what a
    /// spreadsheet or a split analysis reads. Times in seconds from the runner's start; an
    /// empty split is a control not punched.
    ///
    /// ```swift
    /// board.splitsCSV()   // "course,rank,player,name,team,status,control,order,split,leg\r\nLINE,1,P2,Bea,,ok,A1,1,240,240\r\n…"
    /// ```
    public func splitsCSV() -> String {
        var csv = CSVWriter(header: ["course", "rank", "player", "name", "team", "status", "control", "order", "split", "leg"])
        for course in courses {
            for line in course.lines {
                let run = line.run, runner = runners[run.player]
                let head = [course.course, line.rank.map(String.init) ?? "", run.player, runner?.name ?? run.player,
                            runner?.team ?? "", run.status.rawValue]
                for (i, split) in run.splits.enumerated() {
                    csv.row(head + [split.control, "\(i + 1)", split.time.map(Self.seconds) ?? "", split.leg.map(Self.seconds) ?? ""])
                }
                let lastPunched = run.splits.last { $0.time != nil }?.time ?? 0
                csv.row(head + ["finish", "", run.elapsed.map(Self.seconds) ?? "",
                                run.elapsed.map { Self.seconds($0 - lastPunched) } ?? ""])
            }
        }
        return csv.text
    }

    /// Who is still out, as CSV: the control room's list for a spreadsheet or a radio log.
    public static func stillOutCSV(_ out: [StillOut], now: Date) -> String {
        var csv = CSVWriter(header: ["player", "name", "team", "course", "started", "lastSeen", "silentMinutes",
                                     "overdue", "latitude", "longitude"])
        for runner in out {
            csv.row([runner.player, runner.name, runner.team ?? "", runner.course, Results.timestamp(runner.started),
                     Results.timestamp(runner.lastSeen), "\(Int(runner.silentFor / 60))", "\(runner.overdue)",
                     runner.latitude.map { String(format: "%.6f", $0) } ?? "",
                     runner.longitude.map { String(format: "%.6f", $0) } ?? ""])
        }
        return csv.text
    }

    /// A split table per course, for a terminal or a printed sheet: each runner's time and
    /// score, then each control's split with the leg under it, as orienteers read them.
    public func splitTables() -> String {
        var text = ""
        for course in courses {
            text += "\(course.name) (\(course.course), \(course.kind.rawValue))\n"
            let controls = course.controls
            var rows: [[String]] = [["#", "NAME", "STATUS", "TIME"] + (course.kind == .score ? ["SCORE"] : [])
                                    + controls.enumerated().map { "\($0.offset + 1)-\($0.element)" }]
            for line in course.lines {
                let run = line.run
                let byControl = Dictionary(run.splits.map { ($0.control, $0) }, uniquingKeysWith: { a, _ in a })
                let head = [line.rank.map(String.init) ?? "", runners[run.player]?.name ?? run.player,
                            run.status.rawValue, run.elapsed.map(Self.clock) ?? "-"]
                    + (course.kind == .score ? ["\(run.score)" + (run.penalty > 0 ? " (-\(run.penalty))" : "")] : [])
                rows.append(head + controls.map { byControl[$0]?.time.map(Self.clock) ?? "-" })
                rows.append(Array(repeating: "", count: head.count) + controls.map { byControl[$0]?.leg.map(Self.clock) ?? "" })
            }
            if course.lines.isEmpty { text += "  no runners yet\n\n"; continue }
            let widths = rows[0].indices.map { i in rows.map { $0[i].count }.max() ?? 0 }
            for row in rows {
                text += "  " + row.enumerated().map { i, cell in
                    cell + String(repeating: " ", count: max(0, widths[i] - cell.count))
                }.joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression) + "\n"
            }
            text += "\n"
        }
        return text
    }

    static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? "\(Int(t))" : String(format: "%.3f", t)
    }

    /// `m:ss`, or `h:mm:ss` from an hour.
    public static func clock(_ t: TimeInterval) -> String {
        let s = Int(t.rounded(.down))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
