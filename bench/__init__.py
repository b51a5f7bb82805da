"""Benchmarks: scripts whose figures go in docs/performance.md."""
