"""A refused action in words for people: the engine's message, then what the rule says and where to read more.

The game table shows this when it refuses a move (issue 38): not only ``"B-TRADE-5: ..."`` but the rule's
statement from the rules reference (:mod:`catan_nb.reference`) and a link to the rule's entry.

Examples
--------
>>> from catan_nb.errors import IllegalActionError
>>> html = refusal_html(IllegalActionError("B-BUILD-7", "intersection 12 is next to a settlement at 13"))
>>> html.startswith("⚠ B-BUILD-7: intersection 12 is next to a settlement at 13")
True
>>> "no settlement may stand next to another settlement or city" in html
True
>>> 'href="docs/rules/base.md#b-build-7"' in html
True
>>> refusal_html(ValueError("a seat number <= 3"))
'⚠ a seat number &lt;= 3'
"""

from __future__ import annotations

import html

from .. import reference

__all__ = ["refusal_html"]


def refusal_html(error: BaseException, site: str | None = None) -> str:
    """HTML for a refusal: ``"⚠ "`` and the error's message, then, for an error that names a rule the
    reference holds (an :class:`~catan_nb.errors.IllegalActionError`), the rule's statement and a link to
    its entry (:func:`catan_nb.reference.url`, on the site at ``site`` if given)."""
    head = f"⚠ {html.escape(str(error))}"
    rule = getattr(error, "rule", None)
    explanation = getattr(error, "explanation", None) if rule else None
    if not explanation:
        return head
    href = html.escape(reference.url(rule, site=site), quote=True)
    return (f"{head}<br><span class='catan-rule' style='color:#444'>{html.escape(explanation)} "
            f"<a href=\"{href}\" target=\"_blank\" title=\"{html.escape(rule)} in the rules reference\">"
            f"{html.escape(rule)} in the rules reference</a></span>")
