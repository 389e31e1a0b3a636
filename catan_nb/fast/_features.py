"""The value policy's features, named (plain Python: no numba)."""

#: The features, in the order of :func:`features` (the value bot's base-game features).
FEATURES = ("vp", "production", "enemy_production", "diversity", "harbours", "spots", "buildable", "road", "army",
            "hand", "risk_7", "dev", "card")
N_FEATURES = len(FEATURES)
#: Chance of a 7 on a roll.
P7 = 6 / 36
