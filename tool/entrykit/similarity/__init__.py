"""How alike two entries or two phrases are: phrase similarity and near-duplicate entries."""
