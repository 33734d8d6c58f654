"""What alerts say, in Spanish and English (the player's ``language``)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "your_move": {
        "es": ("Te toca contra {opponent}", "{opponent} ha jugado: es tu turno."),
        "en": ("Your move against {opponent}", "{opponent} has played: it is your turn."),
    },
    "reminder": {
        "es": ("Quedan {left} para jugar contra {opponent}", "Si no juegas, el servidor jugará por ti."),
        "en": ("{left} left to move against {opponent}", "If you do not move, the server plays for you."),
    },
    "chat": {
        "es": ("Mensaje de {opponent}", "{text}"),
        "en": ("Message from {opponent}", "{text}"),
    },
    "rematch_offer": {
        "es": ("{opponent} te ofrece la revancha", "Acepta o rechaza en la mesa."),
        "en": ("{opponent} offers a rematch", "Accept or decline at the table."),
    },
    "challenge": {
        "es": ("{opponent} te reta a una partida", "{rules}. Acepta o rechaza antes de {lapses}."),
        "en": ("{opponent} challenges you to a match", "{rules}. Accept or decline before {lapses}."),
    },
    "challenge_accepted": {
        "es": ("{opponent} ha aceptado tu reto", "La partida ha empezado."),
        "en": ("{opponent} accepted your challenge", "The match has started."),
    },
    "seek_taken": {
        "es": ("{opponent} ha aceptado tu búsqueda", "La partida ha empezado."),
        "en": ("{opponent} took your seek", "The match has started."),
    },
    "challenge_declined": {
        "es": ("{opponent} ha rechazado tu reto", "Puedes retar a otro jugador o publicar una búsqueda."),
        "en": ("{opponent} declined your challenge", "You can challenge someone else or post a seek."),
    },
    "match_over": {
        "es": ("Partida terminada contra {opponent}", "{result}"),
        "en": ("Match over against {opponent}", "{result}"),
    },
}

RESULTS = {
    "es": {
        "won": "Has ganado {mine}–{theirs}.",
        "lost": "Has perdido {mine}–{theirs}.",
        "won_games": "Has ganado {mine}–{theirs} en las tres partidas.",
        "lost_games": "Has perdido {mine}–{theirs} en las tres partidas.",
    },
    "en": {
        "won": "You won {mine}–{theirs}.",
        "lost": "You lost {mine}–{theirs}.",
        "won_games": "You won {mine}–{theirs} over three games.",
        "lost_games": "You lost {mine}–{theirs} over three games.",
    },
}

DURATIONS = {
    "es": {"d": "{n} d", "h": "{n} h", "m": "{n} min"},
    "en": {"d": "{n} d", "h": "{n} h", "m": "{n} min"},
}


def language(code: str | None) -> str:
    return code if code in ("es", "en") else "es"


def render(kind: str, lang: str, **context: object) -> tuple[str, str]:
    title, body = TEXTS[kind][language(lang)]
    return title.format(**context), body.format(**context)


def duration(seconds: float, lang: str) -> str:
    units = DURATIONS[language(lang)]
    seconds = max(0, int(seconds))
    if seconds >= 86400:
        return units["d"].format(n=round(seconds / 86400))
    if seconds >= 3600:
        return units["h"].format(n=round(seconds / 3600))
    return units["m"].format(n=max(1, round(seconds / 60)))
