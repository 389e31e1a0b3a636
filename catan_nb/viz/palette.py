"""Colours, symbols and labels for the figures.

Two palettes: ``"standard"`` (board-game colours) and ``"colorblind"`` (Okabe-Ito
colours plus fill patterns on hexes).  In both, every hex also carries a text
label and every building a letter, so nothing relies on colour alone.
"""

from __future__ import annotations

from ..constants import Colour, Resource, Terrain

__all__ = ["PALETTES", "TERRAIN_LABEL", "RESOURCE_LABEL", "palette"]

TERRAIN_LABEL = {
    Terrain.FOREST: "forest",
    Terrain.HILLS: "hills",
    Terrain.PASTURE: "pasture",
    Terrain.FIELDS: "fields",
    Terrain.MOUNTAINS: "mountains",
    Terrain.DESERT: "desert",
    Terrain.SEA: "sea",
    Terrain.GOLD: "gold field",
    Terrain.FOG: "fog",
}
RESOURCE_LABEL = {r: str(r) for r in Resource}

PALETTES = {
    "standard": {
        "terrain": {
            Terrain.FOREST: "#2f7d32",
            Terrain.HILLS: "#c8643b",
            Terrain.PASTURE: "#9ccc65",
            Terrain.FIELDS: "#f2c94c",
            Terrain.MOUNTAINS: "#8e9aa6",
            Terrain.DESERT: "#e9dcb5",
            Terrain.SEA: "#7fb8e6",
            Terrain.GOLD: "#e3b51d",
            Terrain.FOG: "#9e9e9e",
        },
        "pattern": {},
        "player": {
            Colour.RED: "#d62728",
            Colour.BLUE: "#1f5fbf",
            Colour.WHITE: "#f7f7f7",
            Colour.ORANGE: "#ff8c1a",
            Colour.BROWN: "#7b4a2d",
            Colour.GREEN: "#2ca02c",
        },
        "sea": "#a9d6f5",
        "hot_token": "#c0392b",
        "token": "#222222",
        "token_disc": "#fbf4df",
        "label": "#2b2b2b",
        "label_dark": "#ffffff",
        "dark_terrains": (Terrain.FOREST, Terrain.HILLS, Terrain.MOUNTAINS),
        "highlight": "#ff00ff",
        "longest": "#ffd400",
        "heat": "Viridis",
    },
    "colorblind": {
        # Okabe & Ito (2008); patterns make terrains distinguishable without hue.
        "terrain": {
            Terrain.FOREST: "#009E73",
            Terrain.HILLS: "#D55E00",
            Terrain.PASTURE: "#A6DCEF",
            Terrain.FIELDS: "#F0E442",
            Terrain.MOUNTAINS: "#999999",
            Terrain.DESERT: "#F5F0E1",
            Terrain.SEA: "#56B4E9",
            Terrain.GOLD: "#E69F00",
            Terrain.FOG: "#BBBBBB",
        },
        "pattern": {
            Terrain.FOREST: "|",
            Terrain.HILLS: "x",
            Terrain.PASTURE: ".",
            Terrain.FIELDS: "/",
            Terrain.MOUNTAINS: "+",
            Terrain.DESERT: "",
            Terrain.SEA: "",
            Terrain.GOLD: "x",
            Terrain.FOG: ".",
        },
        "player": {
            Colour.RED: "#D55E00",
            Colour.BLUE: "#0072B2",
            Colour.WHITE: "#FFFFFF",
            Colour.ORANGE: "#E69F00",
            Colour.BROWN: "#CC79A7",
            Colour.GREEN: "#009E73",
        },
        "sea": "#DDEEFF",
        "hot_token": "#B00020",
        "token": "#000000",
        "token_disc": "#ffffff",
        "label": "#000000",
        "label_dark": "#000000",
        "dark_terrains": (),
        "highlight": "#CC79A7",
        "longest": "#F0E442",
        "heat": "Cividis",
    },
}


def palette(name: str) -> dict:
    """A palette by name (``"standard"`` or ``"colorblind"``)."""
    try:
        return PALETTES[name]
    except KeyError:
        raise ValueError(f"unknown palette {name!r}; expected one of {', '.join(PALETTES)}") from None
