"""Exceptions raised by the engine. All are ValueError subclasses, so callers
that only care about "bad input" can catch ValueError."""


class RulesError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidCard(RulesError):
    """A card string or value that does not name one of the 52 cards."""


class InvalidHand(RulesError):
    """A collection of cards that cannot be a hand (duplicates, wrong size)."""


class InvalidDeck(RulesError):
    """A deck that is not 52 distinct cards."""


class InvalidRuleset(RulesError):
    """A rule set with nonsensical option values."""


class IllegalMove(RulesError):
    """An action that the rules do not allow in the current state."""


class InvalidState(RulesError):
    """A serialized state that cannot be read back."""


class UnsupportedVariant(RulesError):
    """A combination of variants the engine does not play (Hollywood scoring at a table of three
    or four)."""
