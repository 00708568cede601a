"""`aerie simulate`: many fights of a scene, each side driven by a policy (docs/simulate.md).

``policies`` (who does what), ``fight`` (one fight: its seed, its row), ``runner`` (this process, a process pool,
Ray), ``summary`` (win rates with Wilson intervals, paired differences), ``output`` (rows as csv / jsonl /
parquet), ``report`` (the picture), ``background`` (the window's "how does this end?"), ``cli``, ``bench``.
"""
