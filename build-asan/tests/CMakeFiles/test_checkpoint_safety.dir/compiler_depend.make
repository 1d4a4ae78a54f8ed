# Empty compiler generated dependencies file for test_checkpoint_safety.
# This may be replaced when dependencies are built.
