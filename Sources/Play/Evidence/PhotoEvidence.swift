import Crypto
import Foundation
import GeoQR
import PhotoMetadata
import QRImaging

/// What a photo says about a claim, read in one place for every front end (`geoqr scan`,
/// `geoqr claim`, the server's photo upload): every code in it, where and when it was taken
/// (EXIF GPS and time, from the file or, for a HEIC, from the item libheif found), and the
/// SHA-256 of its bytes, which tells when two players sent the same photo.
///
/// The passes go on until one finds a GeoQR code (``GeoQR/ClaimRules/looksLikeGeoQR(_:)``), not
/// merely any code: a large poster QR beside the small cache code must not end the search before
/// the cache's code is read. Every code the passes found is kept.
///
/// ```swift
/// let evidence = try PhotoEvidence(bytes: try Data(contentsOf: url))
/// evidence.codes      // ["GQ1.DEMO.A2.K3J5M2QX7P4RT6WA"]
/// evidence.location   // ClaimLocation(coordinate: …, source: .exif, time: gpsTime)
/// ```
public struct PhotoEvidence: Sendable {
    /// The text of every distinct code found, in the order found.
    public var codes: [String]
    /// The EXIF position, with its accuracy and GPS time; nil when the photo has none.
    public var location: ClaimLocation?
    /// When the camera's clock says the photo was taken (DateTimeOriginal, in its recorded
    /// offset, else this machine's time zone).
    public var takenAt: Date?
    /// What backs the claim up in the ledger: the photo's digest and the time it carries
    /// (GPS time, which is satellite UTC, before the camera's clock).
    public var evidence: ClaimEvidence

    /// Reads the photo's codes and metadata; throws when the bytes are not a picture the
    /// limits allow.
    public init(bytes: Data, limits: PictureLimits = PictureLimits()) throws(PictureError) {
        let decoded = try PictureDecoder(sought: ClaimRules.looksLikeGeoQR).decode(fileBytes: bytes, limits: limits)
        let metadata = PhotoMetadata(fileBytes: bytes)
            ?? decoded.picture.heifExifBlock.flatMap(PhotoMetadata.init(heifExifBlock:))
        codes = decoded.symbols.map(\.text)
        location = metadata?.coordinate.map {
            ClaimLocation(coordinate: $0, accuracy: metadata?.accuracy, source: .exif, time: metadata?.gpsTime)
        }
        takenAt = metadata?.takenAt(assuming: .current)
        evidence = ClaimEvidence(photoSHA256: SHA256.hash(data: bytes).hex, exifTime: metadata?.gpsTime ?? takenAt)
    }

    /// The claim this photo makes, made `now`: located by its EXIF, else by `fallback` (the
    /// browser's position, `--at`).
    public func claim(fallback: ClaimLocation?, now: Date) -> Claim {
        Claim(payloads: codes, location: location ?? fallback, takenAt: takenAt, claimedAt: now)
    }
}

/// The codes in one camera frame (a phone's browser sends a few a second while its player
/// aims), read by ``QRImaging/FrameDecoder``: one zbar pass, and the harder ones only where
/// the frame shows finder patterns. The next frame is a fraction of a second away.
///
/// Frames are decoded on ``FrameWorkers``, threads of their own, in the order they came.
///
/// ```swift
/// let codes = try await FrameEvidence.read(jpeg).codes
/// ```
public struct FrameEvidence: Sendable {
    public var codes: [String]

    public static func read(_ bytes: Data, limits: PictureLimits = PictureLimits()) async throws(PictureError) -> FrameEvidence {
        FrameEvidence(codes: try await FrameWorkers.shared.decode(bytes, limits: limits).map(\.text))
    }
}

/// A thread per core, each with its own ``QRImaging/FrameDecoder`` (its zbar scanner made
/// once), taking camera frames first come, first served.
///
/// Twenty phones aiming at once send sixty frames a second. Decoded on Swift's shared pool,
/// each frame's request waited behind every frame decoded between the steps of its own
/// answer (reading the body, the rate limit, the ledger), and the slowest answers took half a
/// second while the median took a sixth of that. Here a frame waits once, in one queue, and
/// the shared pool stays free for the quick steps. The threads run at a lower priority (nice 5),
/// so the quick steps never wait for a core behind a decode.
final class FrameWorkers: @unchecked Sendable {   // `jobs` is only touched under `condition`
    static let shared = FrameWorkers(count: ProcessInfo.processInfo.activeProcessorCount)

    private typealias Job = @Sendable (FrameDecoder) -> Void
    private let condition = NSCondition()
    private var jobs: [Job] = [], next = 0

    init(count: Int) {
        for i in 0..<max(count, 1) {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "geoqr.frames.\(i)"
            thread.start()
        }
    }

    func decode(_ bytes: Data, limits: PictureLimits) async throws(PictureError) -> [DecodedSymbol] {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<[DecodedSymbol], PictureError>, Never>) in
            condition.lock()
            jobs.append { decoder in
                do throws(PictureError) {
                    done.resume(returning: .success(try decoder.decode(fileBytes: bytes, limits: limits)))
                } catch {
                    done.resume(returning: .failure(error))
                }
            }
            condition.signal()
            condition.unlock()
        }
        return try result.get()
    }

    private func work() {
        // Below the threads that read requests and write answers: those wake for a moment
        // between long decodes, and each moment waited for a core is added to every answer.
        // Decoding still has every core the rest of the time. (On Linux the nice value is a
        // thread's own, and 0 names the calling thread.)
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        #endif
        let decoder = FrameDecoder()
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next == jobs.count || next >= 256 { jobs.removeFirst(next); next = 0 }
            condition.unlock()
            job(decoder)
        }
    }
}
