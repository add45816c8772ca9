"""Shipped policy weights (SB3 zip, ONNX) and their model cards (package data)."""
