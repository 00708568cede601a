"""The base of the mixins a ruleset class is assembled from (engine/rules/<ruleset>/<subject>.py).

At run time it is ``object``. For the type checker it answers any attribute with ``Any``: a mixin's methods call
the methods of the other mixins of the same ruleset (``self.incapacitated`` from ``Attacks``), which only the
assembled class has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    class RulesetMixin:
        def __getattr__(self, name: str) -> Any: ...
else:
    RulesetMixin = object

__all__ = ["RulesetMixin"]
