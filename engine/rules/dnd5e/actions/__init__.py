"""The Dnd5e actions, one unit each."""
