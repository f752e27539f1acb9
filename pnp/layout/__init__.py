"""Stage 3, layout: where everything goes on the paper, as pure geometry in
millimetres: card sheets, cut marks, tiled boards, printer corrections."""
