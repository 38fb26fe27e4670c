// A privacidade em português: o que o ecrã de entrada promete sobre as posições e o
// esquecimento, e as recusas de apagar posições cedo demais; as mesmas chaves e marcadores
// que Catalogue+en+Privacy.swift.

extension Phrasebook {
    static let portuguesePrivacy: [String: String] = [
        "app.join.retention": "A sua posição é guardada até {hours} horas depois do fim da caça e depois apagada. Pode pedir ao organizador que o esqueça a qualquer momento: o nome, as posições e os relatórios desaparecem; os pontos ficam sob outro nome.",
        "app.join.retentionNone": "A sua posição é apagada logo que a caça termina. Pode pedir ao organizador que o esqueça a qualquer momento: o nome, as posições e os relatórios desaparecem; os pontos ficam sob outro nome.",
        "app.gm.forget": "Esquecer",
        "app.gm.forgetAsk": "Esquecer {name} de vez? O nome, as posições, os relatórios e as fotos são apagados; os pontos ficam com outro nome. Não se pode desfazer.",
        "app.gm.forgotten": "{name} foi esquecido.",
        "error.hunt-not-ended": "a caça {hunt} ainda não terminou: as posições só são apagadas depois de a parar ou de passar o seu fim",
        "error.positions-kept": "as posições são guardadas até {time}: podem ser apagadas a partir daí",
    ]
}
