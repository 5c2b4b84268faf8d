#include <cstdio>
int main() { std::puts("specdec"); return 0; }
