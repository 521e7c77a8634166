"""Figure specs (app/results/figure.py) drawn with pyqtgraph: on screen and, offscreen, to PNG and SVG.

``style`` (how it looks), ``ranges`` (where axes start and end), ``draw`` (spec -> plot, in
named steps), ``export`` (offscreen files), ``png`` (the PNG encoder). Qt is imported only
when something is drawn.
"""
