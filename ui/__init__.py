"""User interfaces: the command line (ui/cli/) and the desktop window (ui/window/: PySide6 +
pyqtgraph). ui/render/ draws figures for both."""

#: The application id (reverse DNS): the name of the .desktop file, of the AppStream metainfo and
#: of the icons in packaging/linux/, and what the window tells Wayland and X11
#: (setDesktopFileName), so the task bar shows the menu entry's name and icon.
APP_ID = "io.github.ssdprofiler.SSDProfiler"
