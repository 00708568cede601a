"""The HUD's sections, in drawing order (the modal ones are drawn last whatever their place here). A new panel is
one new file with a :class:`~engine.app.sections.base.Section` subclass and one line in :func:`default`."""

from __future__ import annotations

from engine.app.sections.base import Layout, Section, SectionManager


def default() -> list[Section]:
    from engine.app.sections.bottom import Actions, Status
    from engine.app.sections.captions import Banner, Toast
    from engine.app.sections.castmenu import CastMenu
    from engine.app.sections.compendium import CompendiumPanel
    from engine.app.sections.creature import CreatureActions
    from engine.app.sections.joinqr import JoinQR
    from engine.app.sections.left import Selected, TopBar, TurnOrder
    from engine.app.sections.legend import Legend
    from engine.app.sections.modals import ChooserPanel, HelpPanel, QuestionPanel, YesNoPanel
    from engine.app.sections.outlook import HowDoesThisEnd
    from engine.app.sections.right import EventLog, Notes, Preview
    from engine.app.sections.tokenhud import TokenHudPanel

    return [TopBar(), TurnOrder(), Selected(), Actions(), CreatureActions(), CastMenu(), Status(), Preview(), Notes(), Legend(),
            HowDoesThisEnd(), EventLog(), Banner(), Toast(), QuestionPanel(), TokenHudPanel(), YesNoPanel(), ChooserPanel(), CompendiumPanel(),
            HelpPanel(), JoinQR()]


__all__ = ["Layout", "Section", "SectionManager", "default"]
