"""Analysis on top of the engine: bots, probability, production, placement, fairness,
longest road, simulation and the expansions' dice and chance.  Nothing here draws; figure helpers import the viz layer lazily.
"""

from .bots import BOT_LEVELS, Bot, RandomBot, WeightedBot, accepts_offer, bot_for_level, play_game
from .expansion_odds import (
    AqueductOdds,
    GoldOdds,
    ProgressOdds,
    aqueduct_odds,
    cities_knights_dice,
    event_counts,
    event_die_distribution,
    event_face_name,
    fog_resource_within,
    fog_reveals_odds,
    fog_token_odds,
    gold_odds,
    improvement_levels,
    progress_draws_observed,
    progress_odds,
)
from .fairness import (
    NO_ADJACENT_EQUAL,
    NO_ADJACENT_RED,
    Constraint,
    FairnessReport,
    balanced_board,
    fairness_report,
    max_intersection_pips,
    max_resource_cluster,
    resource_pips_between,
)
from .longest_road import (
    LongestRoad,
    RoadBreak,
    RoadNetwork,
    cut_lengths,
    explain_longest_road,
    longest_road,
    longest_road_figure,
    longest_roads,
    path_kinds,
    road_breaks,
    road_networks,
    route_title,
    trail_nodes,
)
from .placement import (
    OpeningPair,
    PlacementScore,
    PlacementWeights,
    placement_figure,
    placement_heat,
    rank_openings,
    score_intersections,
    simulate_openings,
)
from .probability import (
    Estimate,
    Event,
    ExpectedHits,
    Hits,
    RollsUntil,
    RollTotal,
    Streak,
    chi_square_test,
    compare,
    dice_sum_distribution,
    token_odds,
)
from .production import (
    Production,
    node_production,
    placement_production,
    player_production,
    token_production,
    robber_effect,
)
from .search_bot import SearchBot
from .simulation import BOTS, GameRecord, SimulationResult, Table, simulate
from .value_bot import ValueBot, position_value

__all__ = [
    "Bot", "RandomBot", "WeightedBot", "ValueBot", "SearchBot", "position_value", "accepts_offer", "play_game",
    "bot_for_level", "BOT_LEVELS",
    "Constraint", "FairnessReport", "balanced_board", "fairness_report", "NO_ADJACENT_EQUAL", "NO_ADJACENT_RED",
    "max_intersection_pips", "max_resource_cluster", "resource_pips_between",
    "LongestRoad", "RoadBreak", "RoadNetwork", "cut_lengths", "explain_longest_road", "longest_road",
    "longest_road_figure", "longest_roads", "road_breaks", "road_networks", "trail_nodes", "path_kinds", "route_title",
    "OpeningPair", "PlacementScore", "PlacementWeights", "placement_figure", "placement_heat", "rank_openings",
    "score_intersections", "simulate_openings",
    "Estimate", "Event", "ExpectedHits", "Hits", "RollsUntil", "RollTotal", "Streak", "chi_square_test", "compare",
    "dice_sum_distribution", "token_odds",
    "Production", "node_production", "placement_production", "player_production", "token_production", "robber_effect",
    "BOTS", "GameRecord", "SimulationResult", "Table", "simulate",
    "AqueductOdds", "GoldOdds", "ProgressOdds", "aqueduct_odds", "cities_knights_dice", "event_counts",
    "event_die_distribution", "event_face_name", "fog_resource_within", "fog_reveals_odds", "fog_token_odds",
    "gold_odds", "improvement_levels", "progress_draws_observed", "progress_odds",
]  # fmt: skip
