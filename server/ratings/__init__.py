"""Ratings (feature ``ratings``): one rating per player and game kind, by openskill's Plackett-Luce model.

``kinds`` names a table's kind of game; ``book`` holds the ratings and their history (in memory, written
through a ``RatingLog``) and rates a finished game; ``sqlite`` is that log on the database.
"""
