bash $DIR/interrupt_kills_target.sh INT
