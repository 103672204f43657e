"""What RisingWave keeps in ``src/common``: plain data shared by frontend and meta."""
