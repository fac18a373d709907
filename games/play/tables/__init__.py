"""A tournament table's keepers and its result's confirmation: table codes, result.confirmed."""
