"""How the log says the actions of Friends (guild favours, F-*), Helpers (H-*) and the 5-6 player Special
Building Phase (X56-SBP).

No figure layer: these variants add nothing to the board.  Favour tokens are drawn face down
(F-EARN-1, F-USE-6), so the guild of a token drawn or given back is named only to its owner;
a development card taken with the Professors' guild or kept with the Architect likewise
(B-SETUP-7).
"""

from __future__ import annotations


def _phrases() -> None:
    from .text import PHRASES, PRIVATE, a_card, place_of_node, place_of_path, seat_name

    def seat(g, q):
        return seat_name(g, q) if isinstance(q, int) and 0 <= q < g.n else str(q)

    def title(x) -> str:
        return str(getattr(x, "name", x)).replace("_", " ").title()

    def mine(g, a, before):
        return (before["current"],)

    p = PHRASES.setdefault
    # Friends (F-EARN-4, F-GUILD-1..5, F-USE-6)
    p("OfferGift", lambda who, a, b, g: f"{who} offers {a_card(a.resource)} as a gift to {seat(g, a.to)}")
    p("AcceptGift", lambda who, a, b, g: f"{who} accepted the gift")
    p("RefuseGift", lambda who, a, b, g: f"{who} refused the gift")
    p("UseMerchants", lambda who, a, b, g: (
        f"{who} used the Merchants' guild to swap " + ", ".join(f"{x} for {y}" for x, y in a.swaps) + " with the bank"))
    p("UseTraders", lambda who, a, b, g: f"{who} used the Traders' guild for 1 {a.resource}")
    p("UsePavers", lambda who, a, b, g: f"{who} used the Pavers' guild for a free road {place_of_path(b, a.path)}")
    p("UseProfessors", lambda who, a, b, g: (
        f"{who} used the Professors' guild for a development card" + (f" ({a.card})" if a.card is not None else "")))
    PRIVATE.setdefault("UseProfessors", (mine, lambda who, a, b, g: f"{who} used the Professors' guild for a development card"))
    p("UseArchitects", lambda who, a, b, g: f"{who} used the Architects' guild for 1 Catan token (1 VP)")
    p("ExchangeFavour", lambda who, a, b, g: (
        f"{who} exchanged a favour token" + (f": drew a {a.drawn.token} ({title(a.drawn)})" if a.drawn is not None else "")))
    PRIVATE.setdefault("ExchangeFavour", (mine, lambda who, a, b, g: f"{who} exchanged a favour token"))
    p("ReturnFavour", lambda who, a, b, g: f"{who} returned a {a.guild.token} token ({title(a.guild)})")
    PRIVATE.setdefault("ReturnFavour", (mine, lambda who, a, b, g: f"{who} returned a favour token"))
    p("EndSpecialBuild", lambda who, a, b, g: f"{who} is done building (Special Building Phase)")
    # Helpers (H-USE-*, H-CARD-1..9)
    p("FlipHelper", lambda who, a, b, g: f"{who} turned their helper to side B")
    p("ExchangeHelper", lambda who, a, b, g: f"{who} exchanged their helper for the {title(a.take)}")
    p("DeclineHelper", lambda who, a, b, g: f"{who} let the roll pass without their helper")
    p("UseMerchantHelper", lambda who, a, b, g: (
        f"{who} used the Merchant for 1 {a.resource} from " + " and ".join(seat(g, q) for q in a.players)))
    p("BuildRoadWithMendicant", lambda who, a, b, g: (
        f"{who} built a road {place_of_path(b, a.path)} with the Mendicant ({a.pay_with} in place of {a.replace})"))
    p("UseMayor", lambda who, a, b, g: f"{who} used the Mayor for 1 {a.resource}")
    p("UseGeneral", lambda who, a, b, g: (
        f"{who} used the General " + (f"for 1 {a.resource}" if a.resource is not None else "to skip the discard on this 7")))
    p("UseRobberBride", lambda who, a, b, g: f"{who} used the Robber Bride to send the robber back to the desert")
    p("UseCaptain", lambda who, a, b, g: f"{who} used the Captain to trade {a.resource} 2:1 with the bank this turn")
    p("UsePriest", lambda who, a, b, g: f"{who} used the Priest for a {a.build} at {place_of_node(b, a.node)}")
    p("UseNoblewoman", lambda who, a, b, g: (
        f"{who} used the Noblewoman to look at {seat(g, a.victim)}'s hand" if a.resource is None
        else f"{who} used the Noblewoman for 1 {a.resource} from {seat(g, a.victim)}"))
    # the card the Noblewoman takes is named to its holder only (the holder's button says "take 1 wool")
    p("NoblewomanTake", lambda who, a, b, g: f"{who} took 1 {a.resource} with the Noblewoman".strip())
    PRIVATE.setdefault("NoblewomanTake", (mine, lambda who, a, b, g: f"{who} took 1 card with the Noblewoman"))
    p("UseExplorer", lambda who, a, b, g: (
        f"{who} used the Explorer to move a road {place_of_path(b, a.source)} → {place_of_path(b, a.target)}"))
    p("UseArchitect", lambda who, a, b, g: f"{who} used the Architect to buy a development card, seeing the top 3")
    p("KeepCard", lambda who, a, b, g: f"{who} kept {title(a.card)}")
    PRIVATE.setdefault("KeepCard", (mine, lambda who, a, b, g: f"{who} kept one of the cards seen"))


_phrases()
