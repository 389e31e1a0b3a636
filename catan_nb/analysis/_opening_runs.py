"""Playouts of lesson 11, section 6, written by docs/tools/make_opening_runs.py: do not edit."""

# bot: (options of the simulate_openings call, results: per pair (|), per playout w/l/u + VP (+ * fell back))
RUNS = {
    'random': (
        {'board': 'beginner',
         'seat': 0,
         'pairs': ((31, 49), (25, 45), (40, 49), (49, 40)),
         'playouts': 16,
         'seed': 11,
         'weights': 'classic',
         'max_turns': 400},
        ' | '.join((
            'l4 l8 l8 l7 l4 l4 l8 l4 l8 l8 l7 l7 l5 l6 l9 l4',
            'l9 l8 l6 l6 w10 l6 l8 l6 l5 l9 w10 l8 l7 l9 l9 w10',
            'l6 w10 u7 l5 l7 l6 l9 w10 w10 l4 l3 l7 l9 l2 w10 l4',
            'l7 l9 l6 l4 l9 l7 l5 u5 w10 w10 l5 l8 l4 w10 l5 l8',
        ))),
    'value': (
        {'board': 'beginner',
         'seat': 0,
         'pairs': ((31, 49), (25, 45), (40, 49), (49, 40)),
         'playouts': 16,
         'seed': 11,
         'weights': 'classic',
         'max_turns': 400},
        ' | '.join((
            'l4 l4 l7 l4 l5 l6 w10 l9 w10 w10 l7 l6 l8 l8 w10 w10',
            'w11 w10 w10 w10 l8 l8 w10 l7 w10 l9 l8 l8 l6 w10 w10 w10',
            'l9 l7 l4 l3 l7 l6 l9 l5 w10 l6 l5 l8 l7 l4 l4 l5',
            'l5 l8 l8 l7 l7 l7 l7 l5 l6 l9 l9 w10 l5 l5 l7 l8',
        ))),
}
