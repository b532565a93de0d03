#!/usr/bin/env python3
"""flamesvg-expect: what a flame graph reader should give back from an inferno SVG of a folded
profile (bench/gen-flamesvg.py lays it out as inferno does: lines sorted, frames merged, frames
narrower than 0.01% of the total left out).

Usage: flamesvg-expect.py FOLDED OUT
Model: a frame draws its own samples first, then its children in order; samples before the
first drawn child are its own (narrow children there cannot be told apart), the rest not in
drawn children is lost, as is all the root leaves. Writes the expected folded stacks to OUT
(sorted frame by frame) and prints the samples lost and kept."""
import collections
import sys

src, dst = sys.argv[1], sys.argv[2]
lines=[l.rstrip("\n").rsplit(" ",1) for l in open(src)]
lines=[(k,int(n)) for k,n in lines]
total=sum(n for _,n in lines); minw=total*0.0001
class N:
    __slots__=("name","start","w","kids")
    def __init__(s,name,start): s.name=name; s.start=start; s.w=0; s.kids=[]
root=N("all",0); t=0; path=[root]
for key,n in sorted(lines):
    st=key.split(";"); same=0
    while same+1<len(path) and same<len(st) and path[same+1].name==st[same]: same+=1
    del path[same+1:]
    for name in st[same:]:
        c=N(name,t); path[-1].kids.append(c); path.append(c)
    for nd in path[1:]: nd.w+=n
    t+=n
root.w=total
lost=0; out=collections.Counter()
stack=[(root,())]
while stack:
    nd,prefix=stack.pop()
    drawn=[k for k in nd.kids if k.w>=minw]
    rest=nd.w-sum(k.w for k in drawn)
    if nd is root: lost+=rest
    elif drawn:
        own=drawn[0].start-nd.start
        lost+=rest-own
        if own: out[prefix]+=own
    elif rest: out[prefix]+=rest
    for k in drawn: stack.append((k,prefix+(k.name,)))
print("expected lost", lost, "kept", sum(out.values()))
with open(dst,"w") as f:
    for k in sorted(out, key=lambda p:[x.encode() for x in p]): f.write(";".join(k)+" %d\n"%out[k])
