"""Loading and validating game data files."""
from .loader import game_ids, load_game

__all__ = ["game_ids", "load_game"]
