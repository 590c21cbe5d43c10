"""Reading a specs folder: its files, YAML with positions, validation of each record and of records against each other."""
