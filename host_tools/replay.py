"""placeholder"""
def add_arguments(p): pass
def main(a): return 0
