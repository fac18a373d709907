"""A tournament's tables: their keepers and their result's confirmation (table codes,
result.confirmed), and who may read the play at them (``reading``)."""
