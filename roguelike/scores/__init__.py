"""Provable scores: the daily seed, verified replays with their score and feats, the hall of fame, score files."""
