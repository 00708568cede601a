"""The Baton actions, one unit each."""
