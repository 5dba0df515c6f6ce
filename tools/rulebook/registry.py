"""The eight games by identifier, imported on demand so one game's import cost is not everyone's."""
import importlib

from .errors import RuleError

GAMES = {
    "sicbo": "rulebook.sicbo",
    "fish_prawn_crab": "rulebook.fish_prawn_crab",
    "fantan": "rulebook.fantan",
    "roulette": "rulebook.roulette",
    "baccarat": "rulebook.baccarat.game",
    "blackjack": "rulebook.blackjack.game",
    "caribbean_stud": "rulebook.caribbean.game",
    "fortune3": "rulebook.fortune3",
}


def game(name):
    """The game module for an identifier; RuleError naming the known games otherwise."""
    if name not in GAMES:
        raise RuleError("unknown game %r (games: %s)" % (name, ", ".join(GAMES)))
    return importlib.import_module(GAMES[name])
