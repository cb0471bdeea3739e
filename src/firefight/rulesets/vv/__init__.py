"""Valor & Victory (seed 003). The board rules are here; the combat procedures come later."""
