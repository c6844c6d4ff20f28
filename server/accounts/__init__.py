"""Accounts (feature ``accounts``): the name rules, the accounts and their public keys, signing in.

``names`` says which names may be registered and when two names are one account; ``book`` holds the
accounts, their keys and one-time link codes (in memory, written through an ``AccountLog``);
``sqlite`` is that log on a durable server's database; ``signin`` checks an ``identify.sign_in``.
"""
