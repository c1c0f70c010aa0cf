"""The `landlord-dsl` commands, called by cli.py once it has read the command line.

common.py holds what several commands share (usage errors, `--option`
pairs, reading a file or standard input); rules.py the commands about rule
files (list, check, fmt, show, sources, board, diff, analyze); games.py the
commands that play games (play, simulate, sweep, replay). Each command
imports the modules it needs when it runs, so start-up stays small.
"""
