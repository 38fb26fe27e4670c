// Privacy in English: what the join screen promises about positions and forgetting (keys
// `app.join.retention…`), and the refusals of dropping positions too early (`error.`);
// Portuguese in Catalogue+pt+Privacy.swift with the same keys and placeholders.

extension Phrasebook {
    static let englishPrivacy: [String: String] = [
        "app.join.retention": "Your position is kept until {hours} hours after the hunt ends, then deleted. Ask the game master to forget you at any time: your name, positions and reports go; your points stay under another name.",
        "app.join.retentionNone": "Your position is deleted as soon as the hunt ends. Ask the game master to forget you at any time: your name, positions and reports go; your points stay under another name.",
        "app.gm.forget": "Forget",
        "app.gm.forgetAsk": "Forget {name} for good? Their name, positions, reports and photos are deleted; their points stay under another name. This cannot be undone.",
        "app.gm.forgotten": "{name} is forgotten.",
        "error.hunt-not-ended": "hunt {hunt} has not ended: positions are dropped only once it is stopped or its end has passed",
        "error.positions-kept": "positions are kept until {time}: they can be dropped from then on",
    ]
}
