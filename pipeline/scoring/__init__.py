"""Scorers: each turns gold and predicted documents into a ScoreReport; readers never score."""
