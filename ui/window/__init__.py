"""The desktop window (PySide6 + pyqtgraph): ``main_window`` assembles and wires the views.

The views live in ``setup/`` (drive, engine, experiments and their parameters), ``run/`` (the
run model, live charts, progress, log) and ``report/`` (results, figures, export, past runs).
Each shows one thing, takes its model in the constructor and never reaches up to its parent
; the window wires them together and holds its parts as objects: ``layout`` places the
views for the screen (side by side, or as tabs on a small one, via ``adaptive``), ``closing``
decides when it may close and what is remembered; ``menus`` and ``help_dialog`` are the frame. ``background``, ``messages``, ``folders`` and
``widgets`` serve all three.
"""
