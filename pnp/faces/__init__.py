"""Stage 2, faces: card faces made of drawing elements, from the Jinja
templates, with their text fitted to its boxes; icons, illustrations and the
PDF operators they are drawn with."""
