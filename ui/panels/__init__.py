"""The window's views: each shows one thing, takes its model in the constructor and never
reaches up to its parent (DESIGN §7.8). The window wires them together."""
