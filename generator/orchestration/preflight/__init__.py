"""Pre-flight checks run on a kit's data before anything is rendered."""
