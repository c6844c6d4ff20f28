#!/bin/sh
# The README's browser screenshots, taken again by the tests that play those tables (tests/web/browserkit.py's
# README_SHOTS names them and where they go): run from the repository's root, with the virtualenv active.
set -e
BONEYARD_README_SHOTS=1 python -m pytest -n 0 -q \
  "tests/web/test_web_browser.py::test_a_whole_moon_game_clicked_on_a_phone_with_a_pause_between_hands_then_a_rematch" \
  "tests/web/test_web_browser.py::test_a_straight_partnership_game_played_by_keyboard_alone_on_a_desktop" \
  "tests/web/test_web_texas42.py::test_a_whole_texas42_game_with_a_nello_hand_clicked_on_a_desktop"
git status --short docs/images
