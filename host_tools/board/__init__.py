"""A real board: the firmware image, flashing, rosters pushed onto a board, and the maker's documents (build guide, legend, pictures)."""
