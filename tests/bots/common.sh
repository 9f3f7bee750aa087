# common.sh: shared by the misbehaving test bots (sourced, POSIX sh). Speaks
# the bot protocol (docs/bot-protocol.md) and plays the first legal move;
# each bot defines misbehave N, run at its N-th decision, which returns 0
# when it has answered (or misbehaved) and 1 to play normally.
first_move() {
    case "$1" in
    "range "*)
        rest=${1#range }
        rest=${rest% *}        # drop fHI
        lo=${rest##* }
        prefix=${rest% *}
        echo "$prefix $lo" ;;
    *) echo "$1" ;;
    esac
}

play() {
    n=0
    while IFS= read -r line; do
        case "$line" in
        chartered*) echo "bot $BOT_NAME 1" ;;
        "legal "*)
            k=${line#legal }
            i=0
            first=""
            while [ "$i" -lt "$k" ]; do
                IFS= read -r mv
                [ "$i" -eq 0 ] && first=$mv
                i=$((i + 1))
            done ;;
        go)
            n=$((n + 1))
            misbehave "$n" || echo "move $(first_move "$first")" ;;
        quit) exit 0 ;;
        esac
    done
}
