"""The rules core: the game, its state, floors and their generation, sight, paths, the RNG and the ECS runner."""
