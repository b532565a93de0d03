#!/bin/sh
# Say what an image file is from its bytes: "png WxH" (the IHDR chunk), "svg", "pdf" or "bad".
f=$1
magic=$(od -An -tx1 -N8 "$f" | tr -d ' \n')
case $magic in
89504e470d0a1a0a)
	[ "$(od -An -c -j12 -N4 "$f" | tr -d ' \n')" = IHDR ] || { echo bad; exit 1; }
	od -An -tu1 -j16 -N8 "$f" | awk '{ printf "png %dx%d\n", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }' ;;
25504446*) echo pdf ;;
*) if grep -q '<svg' "$f"; then echo svg; else echo bad; exit 1; fi ;;
esac
