"""The shipped board files and Dice Game sheets, as package data (``catan_nb.boards``)."""
