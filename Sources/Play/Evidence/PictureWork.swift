import Foundation
import QRImaging
import Workers

/// Where pictures players send are decoded: claim photos, camera frames and report photos.
///
/// A thread per core, at a lower priority than the threads that read requests, behind a queue
/// of 64 pictures a core: enough for 64 phones aiming at once (each sends its next frame only
/// when the last is answered), and no more, since a picture at the back of a longer queue
/// would wait seconds. Past it a picture is refused at once (503 with `Retry-After` at the
/// API), and a player has one picture decoded at a time.
///
/// Decoded on Swift's shared pool, as before, each frame's request waited behind every frame
/// decoded between the steps of its own answer, and six picture bombs kept `/healthz` waiting
/// 28 s. What a picture may cost at all (the pixels a header may declare, a PNG's size, a
/// JPEG's scans) is ``QRImaging/PictureLimits``'s to say: the pool only bounds how much of it
/// runs at once.
public enum PictureWork {
    /// The pool every picture a player sends is decoded on.
    public static let pool = WorkerPool(name: "pictures", threads: ProcessInfo.processInfo.activeProcessorCount,
                                        queueLimit: 64 * ProcessInfo.processInfo.activeProcessorCount)

    /// This thread's frame decoder, made on first use: a zbar scanner is one per thread.
    static func frameDecoder() -> FrameDecoder {
        let key = "geoqr.frameDecoder"
        if let decoder = Thread.current.threadDictionary[key] as? FrameDecoder { return decoder }
        let decoder = FrameDecoder()
        Thread.current.threadDictionary[key] = decoder
        return decoder
    }
}

extension Game {
    /// Whose picture it is, for the pool's one-at-a-time rule: the player of this hunt on this
    /// store, since two games in one process (two hunts, two tests) may each have a `P3`.
    public func pictureOwner(_ player: String) -> String {
        "\(UInt(bitPattern: ObjectIdentifier(store as AnyObject).hashValue))/\(huntID)/\(player)"
    }
}
