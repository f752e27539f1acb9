"""`referee serve`: a read-only web page of the table as it is now.

The core lives here and never imports click or prints: `snapshot` builds
what a page may show (the public view, or one player's private view),
`tokens` keeps each player's unguessable private link beside the table,
`watch` notices a change to the table file, and `app` is the Starlette
application that serves the page, its JSON and its Server-Sent Events.
The command itself is referee/cli_serve.py.
"""
