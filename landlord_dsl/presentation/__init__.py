"""Stage 7, presentation.

What people read and look at (narration, board drawings, plots, replay pages,
`show`, `diff`, live view, syntax highlighting).
"""
